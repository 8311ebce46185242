export {
  ENTITY_TYPES,
  type EntityType,
  isEntityType,
  parseRedactEntities,
  PLACEHOLDERS,
} from './entity-types';
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
