// The one API-key check of every server (simulation service, job queue, STOMP, XML-RPC): both sides
// are hashed to equal length and every configured key is compared in constant time, so the time
// taken tells neither which key matched nor whether any did.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export class KeyChecker {
  private readonly digests: Buffer[];

  constructor(keys: readonly string[]) {
    this.digests = keys.map(digest);
  }

  /** Whether any key is configured. */
  get hasKeys(): boolean {
    return this.digests.length > 0;
  }

  /** True when `candidate` equals one of the keys; takes the same time whichever key matches. */
  accepts(candidate: string | undefined): boolean {
    if (candidate === undefined || candidate === '') return false;
    const probe = digest(candidate);
    let match = false;
    for (const d of this.digests) match = timingSafeEqual(d, probe) || match;
    return match;
  }
}
