// `npm run invite -- [email]`: an invitation to sign up an agency on an invite-only Herald
// (SIGNUP_MODE=invite), valid 14 days and once. Prints the link to send; with an email, only
// that address can use it.
import { prepareDatabase } from './prepare';

async function main(): Promise<void> {
  await prepareDatabase({ migrate: false });
  const { createSignupInvite, INVITE_DAYS } = await import('@/server/agencies/sign-up');
  const email = process.argv.slice(2).find((a) => a.includes('@')) ?? null;
  const link = await createSignupInvite(email);
  console.log(`An invitation${email ? ` for ${email}` : ''}, valid ${INVITE_DAYS} days, once:\n${link}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
