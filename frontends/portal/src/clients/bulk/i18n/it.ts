import type { clientsBulk as en } from './en';

export const clientsBulk: typeof en = {
  button: 'Caricamento massivo',
  requests: 'Richieste di accesso per utenti esistenti',
  fullUsers: 'Nuovi utenti con le loro richieste di accesso',
  downloadTemplate: 'Scarica il modello',
  upload: 'Carica un file',
  selectTenant: 'Seleziona un tenant...',
  dialogTitle: 'Caricamento: {{label}}',
  dropHint: 'Fai clic o trascina qui un file Excel (.xlsx)',
  extensionNotAllowed: 'Estensione non consentita',
  send: 'Carica',
  close: 'Chiudi',
  success: 'Operazione completata con successo',
  background: 'La tua operazione verrà elaborata in background. Il risultato apparirà nelle tue notifiche.',
  uploadError: 'Errore di caricamento',
  templateError: 'Impossibile scaricare il modello',
};
