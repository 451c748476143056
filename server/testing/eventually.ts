// Retries an assertion until it holds (up to about two seconds): for effects that arrive
// through the database's notifications, which land a few milliseconds after the commit.
export async function eventually(check: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await check();
    } catch (err) {
      if (i >= 100) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
