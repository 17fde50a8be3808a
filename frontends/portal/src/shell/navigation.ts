/**
 * Leaves the portal for another application (a full page load, never an in-app navigation). The
 * portal's page is replaced in the history: Back from the application must not land on a home
 * that redirects again at once. Its own module so tests can watch it: jsdom cannot navigate.
 */
export function leavePortal(url: string): void {
  window.location.replace(url);
}
