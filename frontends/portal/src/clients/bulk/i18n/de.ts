import type { clientsBulk as en } from './en';

export const clientsBulk: typeof en = {
  button: 'Massenimport',
  requests: 'Zugriffsanfragen für vorhandene Benutzer',
  fullUsers: 'Neue Benutzer mit ihren Zugriffsanfragen',
  downloadTemplate: 'Vorlage herunterladen',
  upload: 'Datei hochladen',
  selectTenant: 'Mandant auswählen...',
  dialogTitle: 'Hochladen: {{label}}',
  dropHint: 'Klicken oder eine Excel-Datei (.xlsx) hierher ziehen',
  extensionNotAllowed: 'Dateierweiterung nicht erlaubt',
  send: 'Hochladen',
  close: 'Schließen',
  success: 'Vorgang erfolgreich abgeschlossen',
  background: 'Ihr Vorgang wird im Hintergrund verarbeitet. Das Ergebnis erscheint in Ihren Benachrichtigungen.',
  uploadError: 'Fehler beim Hochladen',
  templateError: 'Die Vorlage konnte nicht heruntergeladen werden',
};
