// Which database and ORM errors mean "this input cannot be stored or compared" rather than "the code is
// wrong". The routes check input first; this is the backstop: such an error answers 400 and is logged
// at warn (plugins/errors.ts), so a client's odd input never becomes a 500 or an error-level alarm.
import { type MaybeDatabaseError, someCause } from './database-errors.ts';

/** SQLSTATEs of class 22 (data exception) that only a value can cause. */
const INPUT_SQLSTATES = new Set([
  '22001', // string_data_right_truncation: longer than a varchar/char column
  '22003', // numeric_value_out_of_range: e.g. a total over DECIMAL(12,2), an id over int4
  '22007', // invalid_datetime_format
  '22008', // datetime_field_overflow: e.g. year 0
  '22009', // invalid_time_zone_displacement_value: what PostgreSQL makes of a negative year
  '22019', // invalid_escape_character
  '22021', // character_not_in_repertoire: a NUL byte in text
  '22025', // invalid_escape_sequence: a LIKE pattern ending in a backslash
  '22P02', // invalid_text_representation
  '22P05', // untranslatable_character
]);

/**
 * program_limit_exceeded (54000) when it is a value too large for an index's entry (a name of
 * thousands of letters). The same code for something a statement of ours built too large (a row, a
 * JSON value) stays a fault.
 */
const tooLargeForAnIndex = (e: MaybeDatabaseError) =>
  (e.originalCode === '54000' || e.code === '54000') &&
  [e.originalMessage, e.message].some((message) => typeof message === 'string' && /index row (size|requires)/.test(message));

export function isCausedByInput(error: unknown): boolean {
  return someCause(
    error,
    (e) =>
      // Prisma refuses arguments it cannot express (e.g. a non-finite number) before any SQL runs.
      e.name === 'PrismaClientValidationError' ||
      (typeof e.originalCode === 'string' && INPUT_SQLSTATES.has(e.originalCode)) ||
      (typeof e.code === 'string' && INPUT_SQLSTATES.has(e.code)) ||
      tooLargeForAnIndex(e),
  );
}
