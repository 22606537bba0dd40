// The circuits of recent inline submissions, by their base64 content: a client that submits the
// same file again with other parameters (a sweep driven by a script) skips decoding, parsing and
// checking its shape again. Least recently used entries go first; the cache is bounded in entries
// and in the characters of its keys, and a key longer than a quarter of that bound is not kept.
export class RecentCircuits<T> {
  private readonly entries = new Map<string, T>();
  private characters = 0;

  constructor(
    private readonly maxEntries = 32,
    private readonly maxCharacters = 8 * 1024 * 1024,
  ) {}

  get(content: string): T | undefined {
    const value = this.entries.get(content);
    if (value !== undefined) {
      // Map iteration follows insertion order: re-inserting marks the entry as the newest.
      this.entries.delete(content);
      this.entries.set(content, value);
    }
    return value;
  }

  set(content: string, value: T): void {
    if (content.length > this.maxCharacters / 4 || this.entries.has(content)) return;
    this.entries.set(content, value);
    this.characters += content.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.characters <= this.maxCharacters) break;
      this.entries.delete(oldest);
      this.characters -= oldest.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
