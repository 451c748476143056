// How far a comments client pages through one post's comments: every network pages its
// comment lists, and a read of one post stops at a cap rather than follow a runaway cursor.
// A read that stops there says so (`complete: false`), so the collector does not take the
// comments it did not reach for deleted.

/** The most pages one read of one post's comments asks for (top-level comments and replies together). */
export const DEFAULT_COMMENT_PAGES = 50;

/** How many more pages one read may ask for; shared by a post's comments and their replies. */
export class PageBudget {
  private used = 0;
  constructor(readonly max: number = DEFAULT_COMMENT_PAGES) {}
  /** Takes one page; false when the read has used them all. */
  take(): boolean {
    if (this.used >= this.max) return false;
    this.used += 1;
    return true;
  }
}
