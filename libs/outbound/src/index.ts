/**
 * Calls to URLs users supply (webhook targets, tracker sites, model endpoints), guarded against SSRF:
 * check a URL when it is registered (`checkOutboundUrl`), and call it through `createOutboundClient`,
 * whose connections are checked again when they are made, to the very address checked.
 */
export * from './address-policy.ts';
export * from './url-guard.ts';
export * from './agents.ts';
export * from './client.ts';
