"""Print the text of each page of a PDF (needs the pypdf package)."""

import sys

from pypdf import PdfReader


def main(path: str) -> None:
    for number, page in enumerate(PdfReader(path).pages, start=1):
        print(f"--- page {number} ---")
        print(page.extract_text())


if __name__ == "__main__":
    main(sys.argv[1])
