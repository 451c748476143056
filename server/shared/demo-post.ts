// Where a demo (sandbox) account's posts can be seen: a page of Herald's own, never the real
// network (app/demo-post/[platform]/[postedId]). The sandbox publisher builds its permalinks
// on this path; screens that show a permalink say "the demo post" for one.

/** The path of the page that shows a demo post. */
export const DEMO_POST_PATH = '/demo-post';

/** Whether a permalink is Herald's page of a demo post rather than the network's own. */
export function isDemoPermalink(permalink: string): boolean {
  try {
    return new URL(permalink).pathname.startsWith(`${DEMO_POST_PATH}/`);
  } catch {
    return false;
  }
}
