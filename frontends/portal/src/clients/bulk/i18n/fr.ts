import type { clientsBulk as en } from './en';

export const clientsBulk: typeof en = {
  button: 'Import en masse',
  requests: 'Demandes d’accès pour des utilisateurs existants',
  fullUsers: 'Nouveaux utilisateurs et leurs demandes d’accès',
  downloadTemplate: 'Télécharger le modèle',
  upload: 'Envoyer un fichier',
  selectTenant: 'Sélectionnez un locataire...',
  dialogTitle: 'Envoi : {{label}}',
  dropHint: 'Cliquez ou déposez ici un fichier Excel (.xlsx)',
  extensionNotAllowed: 'Extension non autorisée',
  send: 'Envoyer',
  close: 'Fermer',
  success: 'Opération terminée avec succès',
  background: 'Votre opération sera traitée en arrière-plan. Le résultat apparaîtra dans vos notifications.',
  uploadError: 'Erreur d’envoi',
  templateError: 'Le modèle n’a pas pu être téléchargé',
};
