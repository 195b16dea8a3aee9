import { AppError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '@pp/http';

export class InvalidCredentialsError extends UnauthorizedError {
  constructor() {
    super('The email or password is not correct', 'invalid_credentials');
  }
}

export class EmailTakenError extends ConflictError {
  constructor() {
    super('An account with this email already exists', 'duplicate');
  }
}

export class TokenNotFoundError extends NotFoundError {
  constructor() {
    super('Token not found', 'token_not_found');
  }
}

export class ProviderNotFoundError extends NotFoundError {
  constructor(provider: string) {
    super(`Sign-on provider ${provider} is not configured`, 'provider_not_found');
  }
}

/** The `state` of a callback is forged, expired, already used, or was started by another browser. */
export class InvalidOAuthStateError extends AppError {
  constructor() {
    super(400, 'invalid_oauth_state', 'The sign-on request is invalid, expired or already used; start again');
  }
}

/** The provider refused: the user denied access, or the code could not be exchanged. */
export class OAuthFailedError extends AppError {
  constructor(message = 'The sign-on provider did not confirm your identity', code = 'oauth_failed') {
    super(401, code, message, { headers: { 'WWW-Authenticate': 'Bearer' } });
  }
}

/** The provider vouches for an email that an existing account owns, but has not verified it. */
export class UnverifiedEmailError extends ConflictError {
  constructor() {
    super(
      'An account with this email exists; sign in with your password to link this provider',
      'email_unverified',
    );
  }
}

/**
 * Tokens are made and listed with an access token from signing in only: an API or MCP token that
 * could make others would outlive its own revocation through them (a leaked one minting a new one).
 */
export class AccessTokenRequiredError extends ForbiddenError {
  constructor() {
    super(
      'Only an access token from signing in (POST /auth/login or social sign-on) may create or list tokens',
      'access_token_required',
    );
  }
}
