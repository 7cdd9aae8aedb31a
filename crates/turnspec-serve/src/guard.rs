//! Who may talk to the workbench: the checks every request passes before
//! it reaches a route.
//!
//! - **Host**: only `localhost`, `*.localhost`, `127.0.0.1`, `[::1]` and
//!   the address the server is bound to are served (others get 421), so a
//!   page that rebinds its own name to 127.0.0.1 (DNS rebinding) reaches
//!   nothing. Jupyter, Vite (`server.allowedHosts`) and webpack-dev-server
//!   check the Host header the same way.
//! - **Origin**: a request that is not `GET` or `HEAD` and carries an
//!   `Origin` must come from the workbench's own origin (else 403); so must
//!   one whose `Sec-Fetch-Site` says `cross-site`.
//! - **Token**: bound to an address other than loopback, the server wants
//!   a per-run token, given once in the URL (`/?token=...`) and then kept
//!   in a cookie, as Jupyter does; requests without it get 403.

use std::net::{IpAddr, SocketAddr};

/// The cookie that carries the token after the first visit.
pub const TOKEN_COOKIE: &str = "turnspec_token";

/// What the checks compare a request with.
#[derive(Debug, Clone)]
pub struct Guard {
    /// The address the server is bound to.
    pub bound: SocketAddr,
    /// The per-run token, when the server is bound beyond loopback.
    pub token: Option<String>,
}

/// What the checks read of a request.
#[derive(Debug, Clone, Copy, Default)]
pub struct Asked<'a> {
    /// `GET`, `POST`...
    pub method: &'a str,
    /// The `Host` header.
    pub host: Option<&'a str>,
    /// The `Origin` header.
    pub origin: Option<&'a str>,
    /// The `Sec-Fetch-Site` header.
    pub fetch_site: Option<&'a str>,
    /// The URL's query string.
    pub query: Option<&'a str>,
    /// The `Cookie` headers.
    pub cookies: &'a [&'a str],
}

/// Why a request was turned away: its HTTP status and one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Denied {
    /// 403 or 421.
    pub status: u16,
    /// What to do about it.
    pub message: String,
}

fn denied(status: u16, message: impl Into<String>) -> Denied {
    Denied {
        status,
        message: message.into(),
    }
}

/// `host:port`, `[v6]:port`, `host` or `[v6]`: the host part, lower case,
/// IPv6 addresses with their brackets, and the port if any.
fn split_host(value: &str) -> Option<(String, Option<u16>)> {
    let value = value.trim();
    if value.is_empty() {
        return None;
    }
    let (host, port) = if let Some(rest) = value.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?.parse().ok()?),
        };
        (format!("[{inside}]"), port)
    } else {
        match value.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), Some(p.parse().ok()?)),
            None => (value.to_string(), None),
        }
    };
    Some((host.to_ascii_lowercase(), port))
}

fn ip_of(host: &str) -> Option<IpAddr> {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .ok()
}

impl Guard {
    /// A guard for a server bound to `bound`, with a token when `bound` is
    /// not loopback.
    pub fn new(bound: SocketAddr, token: Option<String>) -> Self {
        Guard { bound, token }
    }

    /// Whether a `Host` (or an origin's host) names this server.
    pub fn host_allowed(&self, host: &str) -> bool {
        let Some((name, _)) = split_host(host) else {
            return false;
        };
        if name == "localhost" || name.ends_with(".localhost") {
            return true;
        }
        match ip_of(&name) {
            Some(ip) if ip.is_loopback() => true,
            Some(ip) if ip == self.bound.ip() => true,
            // Bound to every address: any address of this machine may be
            // asked for by number. A name is what DNS rebinding needs, so
            // numbers are safe to accept.
            Some(_) => self.bound.ip().is_unspecified(),
            None => false,
        }
    }

    /// Checks one request: its method, `Host`, `Origin`,
    /// `Sec-Fetch-Site`, the `token` query parameter and the cookies.
    /// `Ok(true)` when the request presented the token in its URL (the
    /// answer should set the cookie).
    pub fn check(&self, asked: &Asked<'_>) -> Result<bool, Denied> {
        let Asked {
            method,
            host,
            origin,
            fetch_site,
            query,
            cookies,
        } = *asked;
        let Some(host) = host.filter(|h| self.host_allowed(h)) else {
            return Err(denied(
                421,
                "this server answers only to localhost, 127.0.0.1, [::1] or the address it is bound to",
            ));
        };
        let safe = matches!(method, "GET" | "HEAD");
        if !safe {
            if fetch_site == Some("cross-site") {
                return Err(denied(403, "requests from other sites are refused"));
            }
            if let Some(origin) = origin {
                let own = origin
                    .strip_prefix("http://")
                    .is_some_and(|o| o.eq_ignore_ascii_case(host.trim()));
                if !own {
                    return Err(denied(
                        403,
                        "requests from another origin are refused; use the workbench's own page",
                    ));
                }
            }
        }
        let Some(token) = &self.token else {
            return Ok(false);
        };
        let in_query = query
            .into_iter()
            .flat_map(|q| q.split('&'))
            .filter_map(|kv| kv.strip_prefix("token="))
            .any(|t| same(t, token));
        if in_query {
            return Ok(true);
        }
        let in_cookie = cookies
            .iter()
            .flat_map(|c| c.split(';'))
            .filter_map(|kv| kv.trim().strip_prefix(TOKEN_COOKIE)?.strip_prefix('='))
            .any(|t| same(t, token));
        if in_cookie {
            Ok(false)
        } else {
            Err(denied(
                403,
                "this workbench wants its token: open the URL turnspec serve printed",
            ))
        }
    }
}

/// Compares in time that does not depend on where the texts differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// A fresh token: 128 bits from the standard library's randomly keyed
/// hasher (seeded from the operating system), as 32 hex digits.
pub fn new_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut out = String::new();
    for i in 0..2u64 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(i);
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        out.push_str(&format!("{:016x}", h.finish()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> Guard {
        Guard::new("127.0.0.1:7878".parse().unwrap(), None)
    }

    fn get(g: &Guard, host: &str) -> Result<bool, Denied> {
        g.check(&Asked {
            method: "GET",
            host: Some(host),
            ..Asked::default()
        })
    }

    #[test]
    fn hosts_of_this_machine_are_served_and_others_not() {
        let g = loopback();
        for ok in [
            "localhost",
            "localhost:7878",
            "app.localhost:7878",
            "127.0.0.1:7878",
            "[::1]:7878",
            "LOCALHOST",
        ] {
            assert!(get(&g, ok).is_ok(), "{ok}");
        }
        for bad in [
            "rebind.attacker.example",
            "rebind.attacker.example:7878",
            "localhost.attacker.example",
            "10.0.0.5:7878",
            "",
            "[::1",
        ] {
            assert_eq!(get(&g, bad).unwrap_err().status, 421, "{bad}");
        }
        assert!(
            g.check(&Asked {
                method: "GET",
                ..Asked::default()
            })
            .is_err()
        );
    }

    #[test]
    fn posts_from_another_origin_are_refused() {
        let g = loopback();
        let post = |origin, fetch_site| {
            g.check(&Asked {
                method: "POST",
                host: Some("127.0.0.1:7878"),
                origin,
                fetch_site,
                ..Asked::default()
            })
        };
        assert!(post(None, None).is_ok());
        assert!(post(Some("http://127.0.0.1:7878"), Some("same-origin")).is_ok());
        assert_eq!(
            post(Some("http://evil.example"), None).unwrap_err().status,
            403
        );
        assert_eq!(post(Some("null"), None).unwrap_err().status, 403);
        assert_eq!(
            post(Some("http://127.0.0.1:9999"), None)
                .unwrap_err()
                .status,
            403
        );
        assert_eq!(post(None, Some("cross-site")).unwrap_err().status, 403);
    }

    fn asking<'a>(
        host: Option<&'a str>,
        query: Option<&'a str>,
        cookies: &'a [&'a str],
    ) -> Asked<'a> {
        Asked {
            method: "GET",
            host,
            query,
            cookies,
            ..Asked::default()
        }
    }

    #[test]
    fn beyond_loopback_the_token_is_wanted() {
        let g = Guard::new("192.168.1.4:7878".parse().unwrap(), Some("abc123".into()));
        let host = Some("192.168.1.4:7878");
        assert_eq!(g.check(&asking(host, None, &[])).unwrap_err().status, 403);
        assert_eq!(
            g.check(&asking(host, Some("token=abc124"), &[]))
                .unwrap_err()
                .status,
            403
        );
        assert_eq!(
            g.check(&asking(host, Some("x=1&token=abc123"), &[])),
            Ok(true)
        );
        assert_eq!(
            g.check(&asking(host, None, &["a=b; turnspec_token=abc123"])),
            Ok(false)
        );
        assert!(g.host_allowed("192.168.1.4"));
        assert!(!g.host_allowed("192.168.1.5"));
        let any = Guard::new("0.0.0.0:7878".parse().unwrap(), Some("t".into()));
        assert!(any.host_allowed("192.168.1.5:7878"));
        assert!(!any.host_allowed("evil.example:7878"));
    }

    #[test]
    fn tokens_differ() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }
}
