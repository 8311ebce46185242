export * from './interfaces/podium-contacts.interface';
export { type LocalContact, LocalPodiumContacts } from './local/local-podium-contacts';
export { NonePodiumContacts } from './none/none-podium-contacts';
export { ApiPodiumContacts } from './api/api-podium-contacts';
export { type PodiumApiOptions } from './api/podium-api.options';
export {
  createPodiumContacts,
  PODIUM_PROVIDERS,
  PodiumModule,
  type PodiumModuleOptions,
} from './podium.module';
export {
  DatabaseRefreshTokenStore,
  type RefreshTokenStore,
  parseTokenEncryptionKey,
} from './api/refresh-token-store';
