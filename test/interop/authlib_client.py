"""A relying party written with Python's authlib (Debian's python3-authlib), run by authlib.interop.ts.

    authlib_client.py code ISSUER CLIENT_ID SECRET REDIRECT_URI
        Discovery; prints {"authorization_url": ...} (PKCE S256, state, nonce) as one JSON line, reads
        the callback URL the browser reached from stdin; then the code for tokens (client_secret_basic),
        the ID token checked against the provider's JWKS (iss, aud, nonce, exp), userinfo, a refresh,
        the refresh token's revocation and a refresh with it afterwards. Prints the result as one JSON line.

    authlib_client.py client_credentials ISSUER CLIENT_ID SECRET RESOURCE SCOPE API_URL
        Discovery, a client_credentials token for RESOURCE (client_secret_basic), and API_URL called
        with it. Prints the result as one JSON line.

Every HTTP call has a timeout, and the whole run ends after 60 seconds (SIGALRM). Proxies from the
environment are ignored: everything is on 127.0.0.1.
"""

import json
import signal
import sys
import time

import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, JsonWebToken
from authlib.oidc.core import CodeIDToken

TIMEOUT = 10


def out(document):
    print(json.dumps(document), flush=True)


def on_alarm(_signum, _frame):
    out({"error": "timeout: the run took more than 60 seconds"})
    sys.exit(3)


def discover(issuer):
    http = requests.Session()
    http.trust_env = False
    response = http.get(issuer.rstrip("/") + "/.well-known/openid-configuration", timeout=TIMEOUT)
    response.raise_for_status()
    metadata = response.json()
    if metadata.get("issuer") != issuer:
        raise ValueError("discovery names issuer %r, not %r" % (metadata.get("issuer"), issuer))
    jwks = http.get(metadata["jwks_uri"], timeout=TIMEOUT)
    jwks.raise_for_status()
    return metadata, jwks.json()


def session(client_id, secret, **kwargs):
    client = OAuth2Session(
        client_id,
        secret,
        token_endpoint_auth_method="client_secret_basic",
        revocation_endpoint_auth_method="client_secret_basic",
        default_timeout=TIMEOUT,
        **kwargs,
    )
    client.trust_env = False
    return client


def code_flow(issuer, client_id, secret, redirect_uri):
    metadata, jwks = discover(issuer)
    client = session(client_id, secret, scope="openid email profile roles", redirect_uri=redirect_uri, code_challenge_method="S256")
    verifier = generate_token(64)
    nonce = generate_token(24)
    authorization_url, state = client.create_authorization_url(metadata["authorization_endpoint"], code_verifier=verifier, nonce=nonce)
    out({"authorization_url": authorization_url})

    callback = sys.stdin.readline().strip()
    if not callback:
        raise ValueError("no callback URL on stdin")
    token = client.fetch_token(metadata["token_endpoint"], authorization_response=callback, state=state, code_verifier=verifier)

    # Only the algorithms the provider says it signs ID tokens with (never HS256 with a public key).
    jwt = JsonWebToken(metadata["id_token_signing_alg_values_supported"])
    claims = jwt.decode(
        token["id_token"],
        JsonWebKey.import_key_set(jwks),
        claims_cls=CodeIDToken,
        claims_options={"iss": {"essential": True, "value": issuer}, "aud": {"essential": True, "value": client_id}},
        claims_params={"nonce": nonce, "client_id": client_id, "access_token": token["access_token"]},
    )
    # iss, aud, exp, iat, nonce (and at_hash when present), with no leeway.
    claims.validate(now=int(time.time()), leeway=0)

    userinfo = client.get(metadata["userinfo_endpoint"])
    userinfo.raise_for_status()

    first_access_token = token["access_token"]
    first_refresh_token = token["refresh_token"]
    refreshed = client.refresh_token(metadata["token_endpoint"], refresh_token=first_refresh_token)

    revoked = client.revoke_token(metadata["revocation_endpoint"], token=refreshed["refresh_token"], token_type_hint="refresh_token")
    try:
        client.refresh_token(metadata["token_endpoint"], refresh_token=refreshed["refresh_token"])
        after_revocation = "refreshed"
    except OAuthError as error:
        after_revocation = error.error

    out(
        {
            "token_type": token["token_type"],
            "id_token_alg": claims.header["alg"],
            "claims": dict(claims),
            "userinfo": userinfo.json(),
            "refresh": {
                "token_type": refreshed["token_type"],
                "new_access_token": refreshed["access_token"] != first_access_token,
                "new_refresh_token": refreshed["refresh_token"] != first_refresh_token,
            },
            "revocation_status": revoked.status_code,
            "refresh_after_revocation": after_revocation,
        }
    )


def client_credentials(issuer, client_id, secret, resource, scope, api_url):
    metadata, _jwks = discover(issuer)
    client = session(client_id, secret, scope=scope)
    token = client.fetch_token(metadata["token_endpoint"], grant_type="client_credentials", resource=resource)
    api = client.get(api_url, headers={"accept-language": "en"})
    out(
        {
            "token_type": token["token_type"],
            "scope": token.get("scope"),
            "expires_in": token.get("expires_in"),
            "access_token": token["access_token"],
            "api_status": api.status_code,
            "api_body": api.json() if api.headers.get("content-type", "").startswith("application/json") else api.text,
        }
    )


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(60)
    mode, args = sys.argv[1], sys.argv[2:]
    try:
        if mode == "code":
            code_flow(*args)
        elif mode == "client_credentials":
            client_credentials(*args)
        else:
            raise ValueError("unknown mode %r" % mode)
    except OAuthError as error:
        out({"error": "%s: %s" % (error.error, error.description)})
        sys.exit(1)
    except Exception as error:  # noqa: BLE001 - reported to the test as JSON
        out({"error": "%s: %s" % (type(error).__name__, error)})
        sys.exit(1)


if __name__ == "__main__":
    main()
