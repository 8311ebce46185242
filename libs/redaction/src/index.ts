export {
  ENTITY_TYPES,
  type EntityType,
  isEntityType,
  parseRedactEntities,
  PLACEHOLDERS,
} from './entity-types';
export { type CountryCode, DEFAULT_PHONE_REGIONS, parsePhoneRegions } from './phone-regions';
export {
  OFFLOAD_MIN_CHARS,
  RedactionOffloadService,
} from './redaction-offload.service';
export { isLabelWord, outgoingLabel, WITHHELD_LABEL } from './outgoing-label';
export { RedactionModule } from './redaction.module';
export { type RedactionModuleOptions } from './redaction.module-definition';
export { RedactionService } from './redaction.service';
export {
  type RedactedBundle,
  type RedactedEntity,
  type RedactionResult,
  Redactor,
  type RedactorOptions,
} from './redactor';
export { RedactionBusyError } from './worker/redaction-pool';
