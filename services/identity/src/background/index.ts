import type { BackgroundTask, ConsumerSpec } from '@pp/runtime';

/**
 * What the identity unit does outside requests: nothing. It consumes no event (it only announces
 * user.created and token.revoked), and an expired OAuth state is swept when a callback consumes one.
 */
export const consumers = (): ConsumerSpec[] => [];
export const tasks = (): BackgroundTask[] => [];
