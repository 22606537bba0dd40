// The circuit repository: the netlist as JSON, the uploaded file's bytes as a BLOB (null when the
// circuit came as JSON), warnings as a JSON array. Listings are newest first by insertion order.
import type { Netlist } from '../formats/netlist.js';
import {
  columnList,
  decodeRow,
  encodePatch,
  encodeRecord,
  json,
  nullableBlob,
  oneOf,
  parameterList,
  text,
  timestamp,
  type FieldCodec,
  type RecordCodec,
  type Row,
} from './codec.js';
import { invalid, notFound, rethrowConflict } from './errors.js';
import { sqlLimit, sqlOffset, StatementCache, updateSql, type Db, type Statement } from './statements.js';
import type { CircuitRecord, CircuitRepository } from './types.js';

const FORMATS: readonly CircuitRecord['format'][] = ['ipes', 'spice', 'json'];

/** A JSON array of strings. */
function warningList(column: string): FieldCodec<string[]> {
  const inner = json<string[]>(column, 'array');
  return {
    column,
    encode: (v, field) => {
      if (Array.isArray(v) && v.some((w) => typeof w !== 'string')) throw invalid(field, 'an array of strings', v);
      return inner.encode(v, field);
    },
    decode: inner.decode,
  };
}

const CIRCUIT: RecordCodec<CircuitRecord> = {
  id: text('id'),
  name: text('name'),
  format: oneOf('format', FORMATS),
  netlist: json<Netlist>('netlist', 'object'),
  source: nullableBlob('source'),
  warnings: warningList('warnings'),
  createdAt: timestamp('created_at'),
};

const COLUMNS = columnList(CIRCUIT);

export class SqliteCircuitRepository implements CircuitRepository {
  private readonly insertRow: Statement;
  private readonly selectById: Statement;
  private readonly selectPage: Statement;
  private readonly countAll: Statement;
  private readonly deleteById: Statement;
  private readonly shapes: StatementCache;
  private readonly updateOne: (id: string, patch: Partial<Omit<CircuitRecord, 'id'>>) => CircuitRecord;
  private readonly listPage: (limit: number, offset: number) => { circuits: CircuitRecord[]; total: number };

  constructor(db: Db) {
    this.insertRow = db.prepare(`INSERT INTO circuits (${COLUMNS}) VALUES (${parameterList(CIRCUIT)})`);
    this.selectById = db.prepare(`SELECT ${COLUMNS} FROM circuits WHERE id = ?`);
    this.selectPage = db.prepare(`SELECT ${COLUMNS} FROM circuits ORDER BY seq DESC LIMIT ? OFFSET ?`);
    this.countAll = db.prepare('SELECT count(*) FROM circuits').pluck();
    this.deleteById = db.prepare('DELETE FROM circuits WHERE id = ?');
    this.shapes = new StatementCache(db);

    this.updateOne = db.transaction((id: string, patch: Partial<Omit<CircuitRecord, 'id'>>) => {
      const { row, stored } = encodePatch<CircuitRecord>('circuit', CIRCUIT, patch, 'id');
      const current = this.get(id);
      if (!current) throw notFound('circuit', id);
      const columns = Object.keys(row);
      if (columns.length > 0) {
        this.shapes.get(columns.join(','), () => updateSql('circuits', columns, 'id')).run({ ...row, id });
      }
      return { ...current, ...stored };
    });
    this.listPage = db.transaction((limit: number, offset: number) => {
      const rows = this.selectPage.all(sqlLimit(limit), sqlOffset(offset)) as Row[];
      return { circuits: rows.map((row) => decodeRow(CIRCUIT, row)), total: this.countAll.get() as number };
    });
  }

  insert(circuit: CircuitRecord): void {
    const row = encodeRecord('circuit', CIRCUIT, circuit);
    try {
      this.insertRow.run(row);
    } catch (error) {
      rethrowConflict(error, 'circuit', circuit.id);
    }
  }

  get(id: string): CircuitRecord | undefined {
    const row = this.selectById.get(id) as Row | undefined;
    return row && decodeRow(CIRCUIT, row);
  }

  list(limit: number, offset: number): { circuits: CircuitRecord[]; total: number } {
    return this.listPage(limit, offset);
  }

  update(id: string, patch: Partial<Omit<CircuitRecord, 'id'>>): CircuitRecord {
    return this.updateOne(id, patch);
  }

  delete(id: string): boolean {
    return this.deleteById.run(id).changes > 0;
  }
}
