import { configOrExit } from '@pp/config';
import { runService } from '@pp/runtime';
import { definition } from './app.ts';
import { readConfig } from './config.ts';

await runService(definition(configOrExit(readConfig)));
