import { ConflictError, NotFoundError, ValidationError } from '@pp/http';

export class WebhookNotFoundError extends NotFoundError {
  constructor() {
    super('Webhook not found', 'webhook_not_found');
  }
}

export class DeliveryNotFoundError extends NotFoundError {
  constructor() {
    super('Delivery not found', 'delivery_not_found');
  }
}

export class DeliveryInFlightError extends ConflictError {
  constructor() {
    super('An attempt of this delivery is in progress: ask again once it has settled', 'delivery_in_flight');
  }
}

export class WebhookDisabledError extends ConflictError {
  constructor() {
    super('The webhook is disabled: enable it first (PATCH enabled: true)', 'webhook_disabled');
  }
}

/** A field of the request that names something the platform will not use (a URL, a session). */
export const invalidField = (field: string, message: string) => new ValidationError({ [field]: [message] });
