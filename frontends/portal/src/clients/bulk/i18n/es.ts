import type { clientsBulk as en } from './en';

export const clientsBulk: typeof en = {
  button: 'Carga masiva',
  requests: 'Solicitudes de acceso para usuarios existentes',
  fullUsers: 'Usuarios nuevos con sus solicitudes de acceso',
  downloadTemplate: 'Descargar la plantilla',
  upload: 'Subir un archivo',
  selectTenant: 'Seleccione un inquilino...',
  dialogTitle: 'Subir: {{label}}',
  dropHint: 'Haga clic o arrastre aquí un archivo de Excel (.xlsx)',
  extensionNotAllowed: 'Extensión no permitida',
  send: 'Subir',
  close: 'Cerrar',
  success: 'Operación completada con éxito',
  background: 'Su operación se procesará en segundo plano. El resultado aparecerá en sus notificaciones.',
  uploadError: 'Error de carga',
  templateError: 'No se ha podido descargar la plantilla',
};
