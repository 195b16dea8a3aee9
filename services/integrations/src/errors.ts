import { AppError, NotFoundError, ServiceUnavailableError, ValidationError } from '@pp/http';

export class ConnectionNotFoundError extends NotFoundError {
  constructor() {
    super('Connection not found', 'connection_not_found');
  }
}

export class SessionNotFoundError extends NotFoundError {
  constructor() {
    super('Session not found', 'session_not_found');
  }
}

/** One field of the request is wrong: a 422 naming it. */
export const fieldError = (field: string, message: string) => new ValidationError({ [field]: [message] });

export class OAuthNotConfiguredError extends AppError {
  constructor(provider: string) {
    super(
      422,
      'oauth_not_configured',
      `OAuth is not configured for ${provider}: connect with a token instead`,
    );
  }
}

/** The `state` of a callback is unknown, used, expired, not the caller's, or was started by another browser. */
export class InvalidOAuthStateError extends AppError {
  constructor() {
    super(
      400,
      'invalid_oauth_state',
      'The OAuth state is unknown, used already, expired, not yours or started in another browser: start again',
    );
  }
}

export class NeedsReconnectionError extends AppError {
  constructor() {
    super(409, 'needs_reconnection', 'The provider no longer accepts this connection: connect it again');
  }
}

/** What a tracker answered, in the API's terms (the message never carries the tracker's own body). */
export class ProviderAuthError extends AppError {
  constructor(provider: string) {
    super(422, 'provider_auth_failed', `${provider} refused the credentials of this connection`);
  }
}

export class ProviderNotFoundError extends AppError {
  constructor(provider: string, what = 'the configured project') {
    super(422, 'provider_not_found', `${provider} does not show ${what} to these credentials`);
  }
}

export class ProviderRejectedError extends AppError {
  constructor(provider: string, detail: string) {
    super(422, 'provider_rejected', `${provider} refused the request: ${detail}`);
  }
}

export class ProviderRateLimitedError extends AppError {
  constructor(provider: string, retryAfterSeconds: number) {
    super(503, 'provider_rate_limited', `${provider} is rate limiting these calls: try again later`, {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
  }
}

export class ProviderUnavailableError extends ServiceUnavailableError {
  constructor(provider: string, cause?: unknown) {
    super(`${provider} did not answer as expected: try again shortly`, 'provider_unavailable', cause);
  }
}
