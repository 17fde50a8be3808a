import type { ScimPhrases } from './en';

export const it: ScimPhrases = {
  tab: {
    intro:
      'Con il provisioning SCIM, una directory come Microsoft Entra ID o un sistema HR crea, aggiorna, disattiva ed elimina gli utenti e i gruppi di un’area, tramite l’URL di base SCIM 2.0 qui sotto e un token emesso qui.',
    reach: 'Ogni token raggiunge solo gli utenti e i gruppi della propria area. Gli utenti e i gruppi che hanno ruoli di amministrazione sono fuori dalla sua portata.',
    baseUrl: 'URL di base SCIM',
    copyUrl: 'Copia l’URL di base SCIM',
    tokens: 'Token SCIM',
    newToken: 'Nuovo token',
  },
  tokens: {
    name: 'Nome',
    area: 'Area',
    hint: 'Token',
    createdBy: 'Creato da',
    createdAt: 'Creato il',
    expiresAt: 'Scade il',
    lastUsedAt: 'Ultimo utilizzo',
    never: 'Mai',
    expired: 'Scaduto',
    revoke: 'Revoca',
    revokeToken: 'Revoca il token {{name}}',
    revokeConfirm: 'Revocare il token {{name}}?',
    revokeWarning: 'Il provisioning con questo token si interrompe subito: l’area {{area}} non viene più sincronizzata tramite esso. L’operazione è irreversibile.',
    revoked: 'Il token {{name}} è stato revocato',
    issued: 'Il token {{name}} è stato emesso',
  },
  form: {
    title: 'Nuovo token SCIM',
    name: 'Nome',
    nameHelp: 'Distingue i token, ad esempio in base al sistema che lo usa.',
    nameRequired: 'Inserisci un nome per il token',
    tooLong: 'Al massimo {{max}} caratteri',
    area: 'Area',
    areaHelp: 'L’area di cui il token gestisce utenti e gruppi.',
    areaRequired: 'Scegli un’area',
    expiresAt: 'Scadenza',
    expiresAtPlaceholder: 'Tra un anno',
    expiryHelp: 'Il token viene rifiutato a partire da questo giorno. Vuoto: tra un anno; al massimo due anni dopo.',
    expiryInPast: 'Scegli un giorno successivo a oggi',
  },
  issued: {
    title: 'Token SCIM {{name}}',
    warning:
      'Questo è il token che il client SCIM (Microsoft Entra ID, un sistema HR) invia come bearer token, insieme all’URL di base SCIM. Conservalo con cura: chiusa questa finestra, non lo vedrai più.',
    value: 'Token SCIM',
    baseUrl: 'URL di base SCIM',
    area: 'Area',
    expiresAt: 'Scade il',
  },
  copy: {
    copy: 'Copia',
    tokenCopied: 'Token copiato negli appunti!',
    urlCopied: 'URL di base SCIM copiato negli appunti!',
    failed: 'Impossibile copiare: selezionalo e copialo tu.',
  },
};
