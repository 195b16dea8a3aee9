import { installNetworkGuard } from './network-guard.ts';

installNetworkGuard();
