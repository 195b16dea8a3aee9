import { notYetAvailableService } from '@pp/runtime';
import type { Config } from './config.ts';
import { paths } from './paths.ts';

export const definition = (config: Config) => notYetAvailableService('integrations', paths, config);
