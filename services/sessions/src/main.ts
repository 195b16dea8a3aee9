import { runService } from '@pp/runtime';
import { readConfig } from './config.ts';
import { sessionsService } from './service.ts';

await runService(sessionsService(readConfig()));
