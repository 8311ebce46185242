/** Injection token of the {@link CoalescerStateStore} the module picked. */
export const COALESCER_STATE_STORE = 'COALESCER_STATE_STORE';
/** Injection token of the resolved {@link CoalescerConfig}. */
export const COALESCER_CONFIG = 'COALESCER_CONFIG';
