// The Google Business Profile APIs Herald calls, on three Google hosts:
//   Account Management   GET <accounts>/v1/accounts
//     https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list
//   Business Information GET <information>/v1/{accounts/*}/locations?readMask=…
//     https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list
//   My Business v4       POST <posts>/v4/{accounts/*/locations/*}/localPosts
//     https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/create
// GOOGLE_BUSINESS_API_BASE_URL replaces all three at once (a stand-in serving the three paths,
// which do not overlap).
import { baseUrlFromEnv } from '../http';

export const GOOGLE_BUSINESS_DEFAULT_BASE_URL = 'https://mybusiness.googleapis.com';
const ACCOUNTS_HOST = 'https://mybusinessaccountmanagement.googleapis.com';
const INFORMATION_HOST = 'https://mybusinessbusinessinformation.googleapis.com';

export interface GoogleBusinessHosts {
  accounts: string;
  information: string;
  posts: string;
}

/** The three hosts for one API base: Google's own for the default, the one stand-in otherwise. */
export function googleBusinessHosts(baseUrl: string): GoogleBusinessHosts {
  if (baseUrl === GOOGLE_BUSINESS_DEFAULT_BASE_URL) return { accounts: ACCOUNTS_HOST, information: INFORMATION_HOST, posts: GOOGLE_BUSINESS_DEFAULT_BASE_URL };
  return { accounts: baseUrl, information: baseUrl, posts: baseUrl };
}

export const googleBusinessBaseUrl = (): string => baseUrlFromEnv('GOOGLE_BUSINESS_API_BASE_URL', GOOGLE_BUSINESS_DEFAULT_BASE_URL);

/** accounts/{a}/locations/{l}, as the connect flow stores it in Connection.externalId. */
export const LOCATION_NAME = /^accounts\/[^/]+\/locations\/[^/]+$/;
