export * from './interfaces/podium-contacts.interface';
export { type LocalContact, LocalPodiumContacts } from './local/local-podium-contacts';
export { PodiumModule, type PodiumModuleOptions, createPodiumContacts } from './podium.module';
