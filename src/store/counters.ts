// Persistent named counters (cache hits and misses, ...): add() is one atomic upsert, so concurrent
// additions from several connections never lose an increment; an unknown counter reads as 0.
import { checkFinite, text } from './codec.js';
import type { Db, Statement } from './statements.js';
import type { CounterRepository } from './types.js';

const NAME = text('name');

export class SqliteCounterRepository implements CounterRepository {
  private readonly addRow: Statement;
  private readonly selectValue: Statement;

  constructor(db: Db) {
    this.addRow = db.prepare('INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value');
    this.selectValue = db.prepare('SELECT value FROM counters WHERE name = ?').pluck();
  }

  add(name: string, delta: number): void {
    this.addRow.run(NAME.encode(name, 'counter name'), checkFinite(delta, `counter ${name} delta`));
  }

  get(name: string): number {
    return (this.selectValue.get(name) as number | undefined) ?? 0;
  }
}
