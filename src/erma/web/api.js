// The REST API (docs/protocol.md): accounts, rooms, relief, history and records. The session token lives
// in localStorage ("erma.token").

export function token() {
  return localStorage.getItem("erma.token") || "";
}

export function setToken(value) {
  if (value) localStorage.setItem("erma.token", value);
  else localStorage.removeItem("erma.token");
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

/** One REST call with the session token; a failure throws ApiError with the server's error code. */
export async function call(method, path, body) {
  const headers = {};
  if (token()) headers.Authorization = `Bearer ${token()}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data?.error || "http_" + res.status, data?.message);
  return data;
}

export const api = {
  guest: () => call("POST", "/api/guest"),
  register: (name, password) => call("POST", "/api/register", { name, password }),
  login: (name, password) => call("POST", "/api/login", { name, password }),
  me: () => call("GET", "/api/me"),
  relief: () => call("POST", "/api/relief"),
  rooms: () => call("GET", "/api/rooms"),
  games: () => call("GET", "/api/games"),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  replay: (id, seat) => call("GET", `/api/games/${encodeURIComponent(id)}/replay${seat === undefined ? "" : `?seat=${seat}`}`),
  rules: (name) => call("GET", `/api/rules/${encodeURIComponent(name)}`),
};
