// Generators for the Zod/Ajv agreement tests: JSON values near the boundaries each schema
// draws, and mutations of valid values, so both verdicts come up often.
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---- leaf generators: near the boundaries each schema draws, so both verdicts come up often

export const boundaryNumbers = fc.constantFrom(
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  4,
  5,
  9,
  10,
  11,
  99,
  100,
  101,
  149,
  150,
  151,
  -1e-9,
  999_999.99,
  1e6,
  2 ** 31,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53),
  1e21,
  1e308,
  Number.MIN_VALUE,
  -273.15,
  -273.16,
);
export const numbers = fc.oneof(
  boundaryNumbers,
  fc.integer({ min: -200, max: 200 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
export const bmpChar = fc
  .integer({ min: 0, max: 0xffff })
  .filter((c) => c < 0xd800 || c > 0xdfff)
  .map((c) => String.fromCharCode(c));
export const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: bmpChar, maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);

const label = fc.stringMatching(/^[a-zA-Z0-9-]{0,5}$/);
export const emailish = fc.oneof(
  fc.emailAddress(),
  fc
    .tuple(
      fc.stringMatching(/^[a-zA-Z0-9._'+!#-]{0,6}$/),
      fc.array(label, { minLength: 1, maxLength: 3 }),
      fc.stringMatching(/^[a-zA-Z0-9-]{0,4}$/),
    )
    .map(([local, labels, tld]) => `${local}@${[...labels, tld].join('.')}`),
  fc.constantFrom(
    'a@b-.com',
    'a@-b.com',
    'a.@b.co',
    '.a@b.co',
    'a..b@c.de',
    "o'neil@example.com",
    'a@b.c',
    'a@b.co1',
    'A@B.CO',
    'a@b',
    'a b@c.de',
  ),
);
const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-Fg]{${n}}$`));
export const uuidish = fc.oneof(
  fc.uuid(),
  fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((parts) => parts.join('-')),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
    'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
    '123e4567e89b12d3a456426614174000',
  ),
);
const year = fc.oneof(fc.constantFrom('0000', '0400', '1900', '2000', '2023', '2024', '2100', '9999'), fc.stringMatching(/^\d{4}$/));
export const dateish = fc.oneof(
  fc.tuple(year, fc.stringMatching(/^(0\d|1[0-3])$/), fc.stringMatching(/^([0-3]\d)$/)).map((p) => p.join('-')),
  fc.tuple(year, fc.constantFrom('02'), fc.constantFrom('28', '29', '30')).map((p) => p.join('-')),
  fc.constantFrom('2024-1-01', '20240101', '2024-01-01T00:00:00Z', '+2024-01-01'),
);
const clock = fc.tuple(fc.stringMatching(/^([01]\d|2[0-4])$/), fc.stringMatching(/^[0-6]\d$/)).map(([h, m]) => `${h}:${m}`);
const seconds = fc.tuple(fc.stringMatching(/^[0-6]\d$/), fc.constantFrom('', '.5', '.123', '.123456789')).map(([s, f]) => `:${s}${f}`);
const zone = fc.constantFrom('Z', 'Z', 'z', '', '+01:00', '-23:59', '+24:00', '+0100', '+05:30');
export const timeish = fc.tuple(clock, fc.oneof(fc.constant(''), seconds), fc.constantFrom('', '', 'Z')).map((p) => p.join(''));
export const datetimeish = fc
  .tuple(dateish, fc.constantFrom('T', 'T', 't', ' '), clock, fc.oneof(seconds, fc.constant('')), zone)
  .map(([d, sep, c, s, z]) => `${d}${sep}${c}${s}${z}`);
export const ipv4ish = fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.stringMatching(/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/));

const interesting: fc.Arbitrary<Json> = fc.oneof(
  numbers,
  text,
  emailish,
  uuidish,
  dateish,
  datetimeish,
  ipv4ish,
  fc.constantFrom<Json>(
    null,
    true,
    false,
    '',
    'EUR',
    'eur',
    'asc',
    'user',
    'team',
    'circle',
    'rect',
    'fast',
    'x-abc',
    'X-abc',
    'ABCD',
    'abc',
    [],
    {},
    1,
    2,
    3,
  ),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

// ---- mutation: change one spot of a (usually valid) value

type Path = (string | number)[];

function containerPaths(value: Json, prefix: Path = []): Path[] {
  const found: Path[] = [];
  if (Array.isArray(value)) value.forEach((item, i) => found.push([...prefix, i], ...containerPaths(item, [...prefix, i])));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) found.push([...prefix, key], ...containerPaths(item, [...prefix, key]));
  }
  return found;
}

function mutate(value: Json, pick: number, op: 'replace' | 'delete' | 'add', replacement: Json, extraKey: string): Json {
  const copy = JSON.parse(JSON.stringify(value)) as Json;
  const targets = containerPaths(copy);
  if (targets.length === 0) return replacement;
  const path = targets[pick % targets.length]!;
  let parent: Json = copy;
  for (const segment of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[segment]!;
  const last = path[path.length - 1]!;
  const container = parent as Record<string | number, Json>;
  if (op === 'replace') container[last] = replacement;
  else if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete container[last];
  } else {
    const target = container[last];
    if (Array.isArray(target)) target.push(replacement);
    else if (target !== null && typeof target === 'object') target[extraKey] = replacement;
    else container[last] = replacement;
  }
  return copy;
}

const mutated = (valid: fc.Arbitrary<Json>) =>
  fc
    .tuple(
      valid,
      fc.nat(),
      fc.constantFrom('replace', 'replace', 'delete', 'add') as fc.Arbitrary<'replace' | 'delete' | 'add'>,
      interesting,
      fc.constantFrom('extra', 'note', 'email', 'constructor', '__proto__'),
    )
    .map(([value, pick, op, replacement, key]) => mutate(value, pick, op, replacement, key));

export function inputsFor(valid: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  return fc
    .oneof(
      { arbitrary: valid, weight: 4 },
      { arbitrary: mutated(valid), weight: 4 },
      { arbitrary: mutated(mutated(valid)), weight: 1 },
      { arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, weight: 1 },
    )
    .map((value) => JSON.parse(JSON.stringify(value)) as Json);
}

export const opt = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });
/** Mostly `valid`, sometimes a near miss: the mutations below supply most of the invalid inputs. */
export const near = <T, U>(valid: fc.Arbitrary<T>, miss: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: miss, weight: 1 });

export const validEmail = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9_+'-]{1,6}(\.[a-z0-9]{1,4})?$/),
    fc.stringMatching(/^[a-z0-9]{1,5}(-[a-z0-9]{1,3})?$/),
    fc.stringMatching(/^[a-z]{2,4}$/),
  )
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
const validDate = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
export const validDay = validDate.map((d) => d.toISOString().slice(0, 10));
export const validDatetime = validDate.map((d) => d.toISOString());
export const validTime = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.option(fc.integer({ min: 0, max: 59 })))
  .map(([h, m, sec]) => [h, m, ...(sec === null ? [] : [sec])].map((n) => String(n).padStart(2, '0')).join(':'));
export const shortText = fc.string({ unit: bmpChar, minLength: 1, maxLength: 8 });
