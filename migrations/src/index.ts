import { InitialSchema1763769600000 } from './1763769600000-initial-schema.js';
import { SignInLockout1763856000000 } from './1763856000000-sign-in-lockout.js';
import { SecondFactor1763942400000 } from './1763942400000-second-factor.js';
import { UserSearch1764028800000 } from './1764028800000-user-search.js';
import { BootstrapState1764115200000 } from './1764115200000-bootstrap-state.js';
import { CurrentCompany1764201600000 } from './1764201600000-current-company.js';
import { UserAvatars1764288000000 } from './1764288000000-user-avatars.js';
import { PatLastChars1764720000000 } from './1764720000000-pat-last-chars.js';
import { LogFilters1764851400000 } from './1764851400000-log-filters.js';
import { StoredFiles1764937800000 } from './1764937800000-stored-files.js';
import { JobExportsAndHandoffCodes1765024200000 } from './1765024200000-job-exports-and-handoff-codes.js';
import { IdentifyAs1765110600000 } from './1765110600000-identify-as.js';
import { OperationRequestLifecycle1765197000000 } from './1765197000000-operation-request-lifecycle.js';
import { ClientUsers1765283400000 } from './1765283400000-client-users.js';
import { ExternalApiIdempotency1765456200000 } from './1765456200000-external-api-idempotency.js';
import { TenantAccess1765542600000 } from './1765542600000-tenant-access.js';
import { NotificationMessages1765628000000 } from './1765628000000-notification-messages.js';
import { LanguageChosen1765714400000 } from './1765714400000-language-chosen.js';
import { UserListIndexes1765800800000 } from './1765800800000-user-list-indexes.js';
import { PasskeysAndSessions1765887200000 } from './1765887200000-passkeys-and-sessions.js';
import { ApplicationDpop1765973500000 } from './1765973500000-application-dpop.js';
import { ApplicationDeviceFlow1765973600000 } from './1765973600000-application-device-flow.js';
import { ApplicationHardening1766059900000 } from './1766059900000-application-hardening.js';
import { Webhooks1766146300000 } from './1766146300000-webhooks.js';
import { Scim1766232700000 } from './1766232700000-scim.js';
import { SamlApplications1766319100000 } from './1766319100000-saml-applications.js';

/** Every migration, oldest first. A landed migration is never edited: add a new one. */
export const migrations = [InitialSchema1763769600000, SignInLockout1763856000000, SecondFactor1763942400000, UserSearch1764028800000, BootstrapState1764115200000, CurrentCompany1764201600000, UserAvatars1764288000000, PatLastChars1764720000000, LogFilters1764851400000, StoredFiles1764937800000, JobExportsAndHandoffCodes1765024200000, IdentifyAs1765110600000, OperationRequestLifecycle1765197000000, ClientUsers1765283400000, ExternalApiIdempotency1765456200000, TenantAccess1765542600000, NotificationMessages1765628000000, LanguageChosen1765714400000, UserListIndexes1765800800000, PasskeysAndSessions1765887200000, ApplicationDpop1765973500000, ApplicationDeviceFlow1765973600000, ApplicationHardening1766059900000, Webhooks1766146300000, Scim1766232700000, SamlApplications1766319100000];
