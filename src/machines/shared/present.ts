/**
 * A context field that the current state holds by construction (set on every way in), narrowed from its nullable
 * type: a machine that ever breaks that fails here, naming the field, instead of passing `null` on.
 */
export function present<T>(value: T | null | undefined, field: string): T {
  if (value === null || value === undefined) throw new Error(`${field} is missing in this state`);
  return value;
}
