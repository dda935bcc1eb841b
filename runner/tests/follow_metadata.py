"""Follows a server's published description over the network as a client on another host would (run in the
clients' namespace by metadata.sh): the document at URL, then every schema and WSDL it imports or includes,
resolved against the document that names it. Fails, saying which, when a reference is not an http(s) URL of the
network (a file: URL, a path of the server's machine), when a fetch fails, or when a document names the
server's checkout. Prints each document fetched."""
import sys
import urllib.request
from urllib.parse import urljoin, urlparse
from xml.etree import ElementTree

XSD = "{http://www.w3.org/2001/XMLSchema}"
WSDL = "{http://schemas.xmlsoap.org/wsdl/}"


def references(root: ElementTree.Element) -> list[str]:
    out = [e.get("schemaLocation") for tag in ("import", "include", "redefine") for e in root.iter(XSD + tag)]
    out += [e.get("location") for e in root.iter(WSDL + "import")]
    return [r for r in out if r]


def main(url: str, checkout: str) -> int:
    seen, queue, problems = set(), [url], []
    while queue:
        document = queue.pop(0)
        if document in seen:
            continue
        seen.add(document)
        if urlparse(document).scheme not in ("http", "https"):
            problems.append(f"{document}: not a URL of the network")
            continue
        try:
            with urllib.request.urlopen(document, timeout=10) as answer:
                text = answer.read()
        except OSError as e:
            problems.append(f"{document}: {e}")
            continue
        if checkout.encode() in text:
            problems.append(f"{document}: names the server's checkout ({checkout})")
        try:
            root = ElementTree.fromstring(text)
        except ElementTree.ParseError as e:
            problems.append(f"{document}: not XML: {e}")
            continue
        print(document)
        queue += [urljoin(document, r) for r in references(root)]
    for p in problems:
        print(f"PROBLEM {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
