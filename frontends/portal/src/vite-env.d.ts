/// <reference types="vite/client" />

// Links a deployment sets at build time; /api/v1/config `links` override them at run time.
interface ImportMetaEnv {
  readonly VITE_HELPDESK_URL?: string;
  readonly VITE_TERMS_OF_USE_URL?: string;
  readonly VITE_DATA_SUBJECT_RIGHTS_URL?: string;
  readonly VITE_COOKIE_POLICY_URL?: string;
}
