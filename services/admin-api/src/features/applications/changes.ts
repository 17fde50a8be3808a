import type { ApplicationDetailRow, ApplicationFieldsRecord } from './repository.js';

/** A changed field as the system log keeps it: what it was and what it became. */
export interface Change {
  from: unknown;
  to: unknown;
}

/** The stored value of each General property, by the name the API gives it. */
function storedFields(row: ApplicationDetailRow): Record<string, unknown> {
  return {
    displayName: row.display_name,
    description: row.description,
    type: row.client_type,
    privateUrl: row.private_url,
    publicUrl: row.public_url,
    redirectUris: row.redirect_uris,
    postLogoutRedirectUris: row.post_logout_redirect_uris,
    prerelease: row.prerelease,
    hideInUserList: row.hide_in_user_list,
    enabled: row.enabled,
    deviceFlow: row.device_flow,
    requireDpop: row.require_dpop,
    requirePar: row.require_par,
    requireSignedRequestObject: row.require_signed_request_object,
    clientAuthentication: row.client_authentication,
    jwks: row.jwks,
    jwksUri: row.jwks_uri,
    fapi2: row.fapi2,
    tokenExchangeAudiences: row.exchange_audiences,
    icon: row.icon,
  };
}

/**
 * What an update changes, for the system log: each changed property with its old and new value
 * (an uploaded icon is named, never copied), plus `secret: 'generated'` set by the caller.
 */
export function changesOf(row: ApplicationDetailRow, fields: ApplicationFieldsRecord): Record<string, Change | string> {
  const next: Record<string, unknown> = {
    displayName: fields.displayName,
    description: fields.description,
    type: fields.clientType,
    privateUrl: fields.privateUrl,
    publicUrl: fields.publicUrl,
    redirectUris: fields.redirectUris,
    postLogoutRedirectUris: fields.postLogoutRedirectUris,
    prerelease: fields.prerelease,
    hideInUserList: fields.hideInUserList,
    icon: fields.icon,
  };
  // Not sent: unchanged.
  if (fields.enabled !== undefined) next.enabled = fields.enabled;
  if (fields.deviceFlow !== undefined) next.deviceFlow = fields.deviceFlow;
  if (fields.requireDpop !== undefined) next.requireDpop = fields.requireDpop;
  if (fields.requirePar !== undefined) next.requirePar = fields.requirePar;
  if (fields.requireSignedRequestObject !== undefined) next.requireSignedRequestObject = fields.requireSignedRequestObject;
  if (fields.clientAuthentication !== undefined) next.clientAuthentication = fields.clientAuthentication;
  if (fields.jwks !== undefined) next.jwks = fields.jwks;
  if (fields.jwksUri !== undefined) next.jwksUri = fields.jwksUri;
  if (fields.fapi2 !== undefined) next.fapi2 = fields.fapi2;
  if (fields.exchangeAudiences !== undefined) next.tokenExchangeAudiences = [...fields.exchangeAudiences].sort();
  const before = storedFields(row);
  const changes: Record<string, Change | string> = {};
  for (const [field, value] of Object.entries(next)) {
    if (JSON.stringify(value) !== JSON.stringify(before[field])) changes[field] = { from: before[field], to: value };
  }
  if (fields.iconImage === null && row.has_icon_image) changes.iconImage = 'removed';
  if (fields.iconImage) changes.iconImage = 'uploaded';
  return changes;
}
