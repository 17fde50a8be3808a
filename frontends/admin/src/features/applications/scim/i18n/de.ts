import type { ScimPhrases } from './en';

export const de: ScimPhrases = {
  tab: {
    intro:
      'Mit der SCIM-Bereitstellung legt ein Verzeichnis wie Microsoft Entra ID oder ein HR-System die Benutzer und Gruppen eines Bereichs an, aktualisiert, deaktiviert und löscht sie – über die unten stehende SCIM-2.0-Basis-URL und ein hier ausgestelltes Token.',
    reach: 'Jedes Token erreicht nur die Benutzer und Gruppen seines eigenen Bereichs. Benutzer und Gruppen mit Administrationsrollen liegen außerhalb seiner Reichweite.',
    baseUrl: 'SCIM-Basis-URL',
    copyUrl: 'SCIM-Basis-URL kopieren',
    tokens: 'SCIM-Tokens',
    newToken: 'Neues Token',
  },
  tokens: {
    name: 'Name',
    area: 'Bereich',
    hint: 'Token',
    createdBy: 'Erstellt von',
    createdAt: 'Erstellt am',
    expiresAt: 'Läuft ab am',
    lastUsedAt: 'Zuletzt verwendet',
    never: 'Nie',
    expired: 'Abgelaufen',
    revoke: 'Widerrufen',
    revokeToken: 'Token {{name}} widerrufen',
    revokeConfirm: 'Token {{name}} widerrufen?',
    revokeWarning: 'Die Bereitstellung damit endet sofort: Der Bereich {{area}} wird über dieses Token nicht mehr abgeglichen. Dies kann nicht rückgängig gemacht werden.',
    revoked: 'Das Token {{name}} wurde widerrufen',
    issued: 'Das Token {{name}} wurde ausgestellt',
  },
  form: {
    title: 'Neues SCIM-Token',
    name: 'Name',
    nameHelp: 'Unterscheidet die Tokens, z. B. nach dem System, das es verwendet.',
    nameRequired: 'Geben Sie einen Namen für das Token ein',
    tooLong: 'Höchstens {{max}} Zeichen',
    area: 'Bereich',
    areaHelp: 'Der Bereich, dessen Benutzer und Gruppen das Token bereitstellt.',
    areaRequired: 'Wählen Sie einen Bereich',
    expiresAt: 'Ablaufdatum',
    expiresAtPlaceholder: 'In einem Jahr',
    expiryHelp: 'Ab diesem Tag wird das Token abgelehnt. Leer: in einem Jahr; höchstens zwei Jahre im Voraus.',
    expiryInPast: 'Wählen Sie einen Tag nach heute',
  },
  issued: {
    title: 'SCIM-Token {{name}}',
    warning:
      'Dies ist das Token, das der SCIM-Client (Microsoft Entra ID, ein HR-System) zusammen mit der SCIM-Basis-URL als Bearer-Token sendet. Bewahren Sie es sorgfältig auf: Sobald Sie dieses Fenster schließen, sehen Sie es nicht mehr.',
    value: 'SCIM-Token',
    baseUrl: 'SCIM-Basis-URL',
    area: 'Bereich',
    expiresAt: 'Läuft ab am',
  },
  copy: {
    copy: 'Kopieren',
    tokenCopied: 'Token in die Zwischenablage kopiert!',
    urlCopied: 'SCIM-Basis-URL in die Zwischenablage kopiert!',
    failed: 'Das Kopieren ist fehlgeschlagen: Markieren und kopieren Sie den Text selbst.',
  },
};
