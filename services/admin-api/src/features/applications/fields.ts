import {
  APPLICATION_ICON_NAME_PATTERN,
  APPLICATION_ID_PATTERN,
  APPLICATION_LIMITS,
  APPLICATION_NAME_PATTERN,
  isApplicationUrl,
  type newApplicationSchema,
  type updateApplicationSchema,
} from '@gatehouse/contracts';
import { AppError, type FieldError } from '@gatehouse/core';
import type { z } from 'zod';
import { storedIconImage } from './icon-image.js';
import type { ApplicationFieldsRecord } from './repository.js';

export type NewApplicationBody = z.output<typeof newApplicationSchema>;
export type ApplicationChangesBody = z.output<typeof updateApplicationSchema>;

/** The General properties, as both forms send them. */
type FieldsBody = Omit<ApplicationChangesBody, 'id' | 'name'>;

/** Checks what the schemas cannot say (addresses, icon) and answers the record to store, the uploaded icon encoded again. */
export async function checkedFields(body: FieldsBody, extra: FieldError[] = []): Promise<ApplicationFieldsRecord> {
  const errors = [...extra, ...urlErrors(body), ...iconErrors(body.icon)];
  const iconImage = body.iconImage === undefined || body.iconImage === null ? body.iconImage : await storedIconImage(body.iconImage, errors);
  if (errors.length) throw new AppError('errors.validation', 400, {}, errors);
  return {
    displayName: body.displayName,
    description: body.description,
    clientType: body.type,
    privateUrl: body.privateUrl,
    publicUrl: body.publicUrl,
    redirectUris: body.redirectUris,
    postLogoutRedirectUris: body.postLogoutRedirectUris,
    prerelease: body.prerelease,
    hideInUserList: body.hideInUserList,
    enabled: body.enabled,
    deviceFlow: body.deviceFlow,
    requireDpop: body.requireDpop,
    requirePar: body.requirePar,
    requireSignedRequestObject: body.requireSignedRequestObject,
    clientAuthentication: body.clientAuthentication,
    jwks: body.jwks,
    jwksUri: body.jwksUri === undefined ? undefined : body.jwksUri,
    fapi2: body.fapi2,
    exchangeAudiences: body.tokenExchangeAudiences === undefined ? undefined : [...new Set(body.tokenExchangeAudiences)],
    icon: body.icon,
    iconImage,
  };
}

/** The id and name of a new application must be usable as a path segment and a client_id. */
export function identifierErrors(id: string | null, name: string): FieldError[] {
  const errors: FieldError[] = [];
  if (id !== null && !APPLICATION_ID_PATTERN.test(id)) errors.push({ field: 'id', code: 'applications.invalid_id' });
  if (!APPLICATION_NAME_PATTERN.test(name)) errors.push({ field: 'name', code: 'applications.invalid_name' });
  return errors;
}

/** The id a new application gets when none is given: its name when that fits an id. */
export function defaultIdFor(name: string): string | null {
  return name.length <= APPLICATION_LIMITS.id && APPLICATION_ID_PATTERN.test(name) ? name : null;
}

function urlErrors(body: FieldsBody): FieldError[] {
  const errors: FieldError[] = [];
  if (body.privateUrl !== null && !isApplicationUrl(body.privateUrl)) errors.push({ field: 'privateUrl', code: 'applications.invalid_url' });
  if (body.publicUrl !== null && !isApplicationUrl(body.publicUrl)) errors.push({ field: 'publicUrl', code: 'applications.invalid_url' });
  for (const [field, uris] of [
    ['redirectUris', body.redirectUris],
    ['postLogoutRedirectUris', body.postLogoutRedirectUris],
  ] as const) {
    uris.forEach((uri, index) => {
      if (!isApplicationUrl(uri, { redirect: true })) errors.push({ field: `${field}.${index}`, code: 'applications.invalid_redirect_uri' });
      else if (uris.indexOf(uri) !== index) errors.push({ field: `${field}.${index}`, code: 'applications.duplicate_uri' });
    });
  }
  return errors;
}

function iconErrors(icon: string | null): FieldError[] {
  if (icon === null || APPLICATION_ICON_NAME_PATTERN.test(icon) || isApplicationUrl(icon)) return [];
  return [{ field: 'icon', code: 'applications.invalid_icon' }];
}
