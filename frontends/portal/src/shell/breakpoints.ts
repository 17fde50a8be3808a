/** The spec's breakpoint: the top bar collapses behind a hamburger at 768 px or less. */
export const NARROW_SCREEN_QUERY = '(max-width: 768px)';
