// My Clients' bulk-upload options. Some wordings are the spec's own ('Select Tenant...',
// 'Operation Completed Successfully', 'Your operation will be processed in background.').
export const clientsBulk = {
  button: 'Bulk upload',
  requests: 'Access requests for existing users',
  fullUsers: 'New users with their access requests',
  downloadTemplate: 'Download the template',
  upload: 'Upload a file',
  selectTenant: 'Select Tenant...',
  dialogTitle: 'Upload: {{label}}',
  dropHint: 'Click or drag an Excel file (.xlsx) here',
  extensionNotAllowed: 'Extension not allowed',
  send: 'Upload',
  close: 'Close',
  success: 'Operation Completed Successfully',
  background: 'Your operation will be processed in background. The result will appear in your notifications.',
  uploadError: 'Upload Error',
  templateError: 'The template could not be downloaded',
};
