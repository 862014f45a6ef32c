// Runs in every test worker before its tests. Vite puts its own BASE_URL ("/") into process.env,
// and child processes the tests start (servers, CLIs) would inherit it as the service's BASE_URL,
// which must be an absolute URL: give them the local default instead.
if (process.env.BASE_URL === undefined || !/^https?:\/\//.test(process.env.BASE_URL)) {
  process.env.BASE_URL = 'http://localhost:3000';
}
