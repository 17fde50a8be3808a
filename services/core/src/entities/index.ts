import { Application, ApplicationExchangeAudience, ApplicationOwner, ApplicationUserBlock, Disclaimer, DisclaimerAcceptance, PersonalAccessToken, Role, RoleScope, UserFavoriteApplication } from './applications.js';
import { Area, Group, GroupMember, SignInAttempt, Tenant, User, UserExternalLogin, UserPasswordHistory, UserToken } from './identity.js';
import { ExternalApiIdempotencyKey } from './external-api.js';
import { UserPasskey, UserRecoveryCode, UserSession, WebAuthnChallenge } from './factors.js';
import { Impersonation } from './impersonation.js';
import { AuthenticationLog, ExternalApiAccessLog, SessionLog, SystemLog } from './logs.js';
import { WebhookDelivery, WebhookEndpoint, WebhookEvent } from './webhooks.js';
import { ScimGroup, ScimToken, ScimUser } from './scim.js';
import { ApplicationSamlSettings } from './saml.js';
import { OperationRequest, OperationRequestHistory, TenantMember, TenantMemberRole } from './membership.js';
import { BackgroundJob, MailOutbox, Notification, OidcModelInstance, RightsRequest, RightsRequestFile, SecurityConfig, SigningKey, StoredFile } from './platform.js';

export * from './applications.js';
export * from './identity.js';
export * from './external-api.js';
export * from './factors.js';
export * from './impersonation.js';
export * from './logs.js';
export * from './membership.js';
export * from './platform.js';
export * from './webhooks.js';
export * from './scim.js';
export * from './saml.js';

export const entities = [
  Area, Tenant, User, SignInAttempt, UserPasswordHistory, UserExternalLogin, UserToken, Group, GroupMember,
  Application, ApplicationExchangeAudience, ApplicationOwner, ApplicationUserBlock, Role, RoleScope, UserFavoriteApplication, Disclaimer, DisclaimerAcceptance,
  PersonalAccessToken, TenantMember, TenantMemberRole, OperationRequest, OperationRequestHistory,
  AuthenticationLog, SystemLog, SessionLog, ExternalApiAccessLog,
  SecurityConfig, Notification, BackgroundJob, RightsRequest, RightsRequestFile, MailOutbox, SigningKey, OidcModelInstance, StoredFile,
  Impersonation, ExternalApiIdempotencyKey,
  UserPasskey, WebAuthnChallenge, UserRecoveryCode, UserSession,
  WebhookEndpoint, WebhookEvent, WebhookDelivery,
  ScimToken, ScimUser, ScimGroup,
  ApplicationSamlSettings,
];
