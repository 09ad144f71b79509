import { z } from 'zod';

/**
 * Zod 4 compiles object parsers with `new Function` when it may, and finds out whether it may by
 * trying once; under the pages' CSP (no 'unsafe-eval') that try is a reported violation. In the
 * browser, parse without compiling. Must be imported before any module that builds a schema.
 */
if (typeof window !== 'undefined') z.config({ jitless: true });
