/**
 * A step that must settle within `ms`, or fails naming itself: a test that ran into its own time limit under load
 * said only that it timed out, not which step hung.
 */
export async function within<T>(ms: number, step: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${step}`)), ms);
  });
  try {
    return await Promise.race([p, limit]);
  } finally {
    clearTimeout(timer);
  }
}
