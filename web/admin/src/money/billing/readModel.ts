/**
 * Reads until the read model shows a change just made (its projector applies it a moment after the answer),
 * so the page never shows the state from before: at most about five seconds, then what it has.
 */
export async function untilShown<T>(read: () => Promise<T>, shows: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const value = await read();
    if (shows(value) || attempt >= 20) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
