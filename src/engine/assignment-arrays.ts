// Parameter assignments (OverrideResolver) as the addon takes them: parallel typed arrays, each
// parameter name once (native/addon/assignments.hh). Set k of `sets` is the `counts[k]`
// assignments after those of the sets before it.
import type { ParameterAssignment } from '../formats/overrides.js';

export interface AssignmentArrays {
  names: string[];
  counts: Int32Array;
  lists: Int32Array;
  items: Int32Array;
  nameIds: Int32Array;
  values: Float64Array;
}

export function assignmentArrays(sets: ParameterAssignment[][]): AssignmentArrays {
  const total = sets.reduce((n, set) => n + set.length, 0);
  const ids = new Map<string, number>();
  const arrays: AssignmentArrays = {
    names: [],
    counts: Int32Array.from(sets, (set) => set.length),
    lists: new Int32Array(total),
    items: new Int32Array(total),
    nameIds: new Int32Array(total),
    values: new Float64Array(total),
  };
  let i = 0;
  for (const set of sets) {
    for (const { list, index, param, value } of set) {
      let id = ids.get(param);
      if (id === undefined) {
        id = arrays.names.push(param) - 1;
        ids.set(param, id);
      }
      arrays.lists[i] = list;
      arrays.items[i] = index;
      arrays.nameIds[i] = id;
      arrays.values[i] = value;
      i++;
    }
  }
  return arrays;
}
