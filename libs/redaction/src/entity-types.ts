/**
 * The kinds of PII the redactor knows, their placeholders, and the parser for the
 * `REDACT_ENTITIES` setting.
 */

/** Every entity type, in tie-break order: when two detections overlap with equal length,
 * the one whose type comes first here wins (validated checksums beat context heuristics). */
export const ENTITY_TYPES = [
  'EMAIL',
  'IBAN',
  'CREDIT_CARD',
  'US_SSN',
  'IP_ADDRESS',
  'PHONE',
  'DATE_OF_BIRTH',
  'STREET_ADDRESS',
] as const;

/** A kind of PII the redactor can mask. */
export type EntityType = (typeof ENTITY_TYPES)[number];

/** The typed placeholder that replaces each entity, as in the spec's naive filter. */
export const PLACEHOLDERS: Readonly<Record<EntityType, string>> = {
  CREDIT_CARD: '[REDACTED:CC]',
  US_SSN: '[REDACTED:SSN]',
  PHONE: '[REDACTED:PHONE]',
  EMAIL: '[REDACTED:EMAIL]',
  IBAN: '[REDACTED:IBAN]',
  IP_ADDRESS: '[REDACTED:IP]',
  STREET_ADDRESS: '[REDACTED:ADDR]',
  DATE_OF_BIRTH: '[REDACTED:DOB]',
};

/** Base confidence per type; detectors may lower it for weaker evidence (e.g. spoken forms). */
export const BASE_CONFIDENCE: Readonly<Record<EntityType, number>> = {
  EMAIL: 0.99,
  IBAN: 0.98,
  CREDIT_CARD: 0.95,
  US_SSN: 0.9,
  IP_ADDRESS: 0.85,
  PHONE: 0.8,
  DATE_OF_BIRTH: 0.75,
  STREET_ADDRESS: 0.6,
};

const KNOWN = new Set<string>(ENTITY_TYPES);

/** Narrows an arbitrary string to an {@link EntityType}. */
export function isEntityType(value: string): value is EntityType {
  return KNOWN.has(value);
}

/**
 * Parses the `REDACT_ENTITIES` env var: a comma-separated list of entity type names
 * (case-insensitive, blanks ignored). Empty or undefined means every type, so a missing
 * setting can never switch redaction off.
 *
 * @throws Error naming every unknown entry and listing the accepted names.
 */
export function parseRedactEntities(csv: string | undefined): EntityType[] {
  const names = (csv ?? '')
    .split(',')
    .map((name) => name.trim().toUpperCase())
    .filter((name) => name.length > 0);
  if (names.length === 0) {
    return [...ENTITY_TYPES];
  }
  const unknown = names.filter((name) => !isEntityType(name));
  if (unknown.length > 0) {
    throw new Error(
      `REDACT_ENTITIES has unknown entity type(s): ${unknown.join(', ')}. ` +
        `Use a comma-separated list of: ${ENTITY_TYPES.join(', ')} (empty means all).`,
    );
  }
  return [...new Set(names.filter(isEntityType))];
}
