/** At most `limit` events per sliding window of `windowMs` (per-request notification caps). */
export class SlidingWindowLimiter {
  private readonly stamps: number[] = [];
  private droppedCount = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a slot if one is free; returns false (and counts a drop) otherwise. */
  tryTake(): boolean {
    const now = this.now();
    while (this.stamps.length > 0 && now - (this.stamps[0] as number) >= this.windowMs) this.stamps.shift();
    if (this.stamps.length >= this.limit) {
      this.droppedCount += 1;
      return false;
    }
    this.stamps.push(now);
    return true;
  }

  get dropped(): number {
    return this.droppedCount;
  }
}
