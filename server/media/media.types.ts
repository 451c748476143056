// Media as the publishing rules see it: resolved, in our storage, with what the limits need.
export interface ResolvedMedia {
  assetId: string;
  url: string;
  kind: 'image' | 'video';
  contentType: string;
  bytes: number;
  /** Video only, when the container declares it. */
  durationMs: number | null;
  /** Set when this call fetched the URL into storage (a new asset), so a caller that fails later can discard it. */
  imported?: boolean;
}
