/** The workspace the switcher picked, remembered per browser. */
export const WORKSPACE_COOKIE = 'herald_ws';
