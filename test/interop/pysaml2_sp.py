"""A SAML 2.0 service provider written with pysaml2 (Debian's python3-pysaml2, signatures checked by
xmlsec1), run by pysaml2.interop.ts.

    pysaml2_sp.py BINDING IDP_METADATA_URL SP_ENTITY_ID ACS_URL RELAY_STATE [KEY_FILE CERT_FILE]

        Reads the identity provider's metadata, makes an AuthnRequest for the HTTP-Redirect or
        HTTP-POST BINDING (redirect | post) and prints, as one JSON line, where the browser goes:
        {"request_id", "url"} (redirect) or {"request_id", "action", "form"} (post). With BINDING
        unsolicited, it makes no request, prints {"ready": true} and takes responses that answer
        none (a sign-in the identity provider started). With KEY_FILE and CERT_FILE (PEM), it
        decrypts encrypted assertions with that key (and then requires them encrypted). Then reads
        responses from stdin, one JSON line each ({"SAMLResponse": ...}), and prints for each one
        {"ok": true, "name_id", "name_id_format", "attributes", "issuer", "in_response_to",
        "signed_response", "signed_assertion", "encrypted_assertion"} or {"ok": false, "error"}. As a real service provider
        does, it forgets a request once a response to it was accepted: the same response again is
        unsolicited, and refused.

The response must be signed, its assertion too, for this SP, its ACS, and the request it made.
Every HTTP call has a timeout, and the whole run ends after 60 seconds (SIGALRM).
"""

import base64
import json
import signal
import sys
import urllib.parse
import urllib.request

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.client import Saml2Client
from saml2.config import SPConfig

TIMEOUT = 10


def out(document):
    print(json.dumps(document), flush=True)


def on_alarm(_signum, _frame):
    out({"error": "timeout: the run took more than 60 seconds"})
    sys.exit(3)


def client(metadata, entity_id, acs, unsolicited, key_file=None, cert_file=None):
    settings = {
        "entityid": entity_id,
        "metadata": {"inline": [metadata]},
        "service": {
            "sp": {
                "endpoints": {"assertion_consumer_service": [(acs, BINDING_HTTP_POST)]},
                "allow_unsolicited": unsolicited,
                "authn_requests_signed": False,
                "want_response_signed": True,
                "want_assertions_signed": True,
            }
        },
        "allow_unknown_attributes": True,
        "xmlsec_binary": "/usr/bin/xmlsec1",
    }
    if key_file:
        settings["key_file"] = key_file
        settings["cert_file"] = cert_file
        settings["encryption_keypairs"] = [{"key_file": key_file, "cert_file": cert_file}]
    config = SPConfig()
    config.load(settings)
    return Saml2Client(config)


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(60)
    binding, metadata_url, entity_id, acs, relay_state = sys.argv[1:6]
    key_file, cert_file = (sys.argv[6:8] + [None, None])[:2]
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(metadata_url, timeout=TIMEOUT) as answer:
        metadata = answer.read().decode("utf-8")
    sp = client(metadata, entity_id, acs, binding == "unsolicited", key_file, cert_file)
    idp = list(sp.metadata.identity_providers())[0]
    outstanding = {}
    if binding == "unsolicited":
        out({"ready": True})
    elif binding == "redirect":
        destination = sp.metadata.single_sign_on_service(idp, BINDING_HTTP_REDIRECT)[0]["location"]
        request_id, request = sp.create_authn_request(destination, binding=BINDING_HTTP_POST)
        info = sp.apply_binding(BINDING_HTTP_REDIRECT, str(request), destination, relay_state=relay_state)
        out({"request_id": request_id, "url": dict(info["headers"])["Location"]})
    else:
        destination = sp.metadata.single_sign_on_service(idp, BINDING_HTTP_POST)[0]["location"]
        request_id, request = sp.create_authn_request(destination, binding=BINDING_HTTP_POST)
        out({"request_id": request_id, "action": destination, "form": {"SAMLRequest": base64.b64encode(str(request).encode()).decode(), "RelayState": relay_state}})
    if binding != "unsolicited":
        outstanding[request_id] = "/"
    for line in sys.stdin:
        if not line.strip():
            continue
        saml_response = json.loads(line)["SAMLResponse"]
        try:
            encrypted = "EncryptedAssertion" in base64.b64decode(saml_response).decode("utf-8")
            if key_file and not encrypted:
                raise ValueError("the assertion is not encrypted")
            response = sp.parse_authn_request_response(saml_response, BINDING_HTTP_POST, outstanding=outstanding)
            if response is None:
                raise ValueError("no response")
            name_id = response.assertion.subject.name_id
            outstanding.pop(response.in_response_to, None)
            out(
                {
                    "ok": True,
                    "name_id": name_id.text,
                    "name_id_format": name_id.format,
                    "attributes": response.ava,
                    "issuer": response.issuer(),
                    "in_response_to": response.in_response_to,
                    "signed_response": response.response.signature is not None,
                    "signed_assertion": response.assertion.signature is not None,
                    "encrypted_assertion": encrypted,
                }
            )
        except Exception as error:  # every refusal is reported, whatever its class
            out({"ok": False, "error": "%s: %s" % (type(error).__name__, error)})


if __name__ == "__main__":
    main()
