import sys
from pathlib import Path

# The runner's analysis package lives beside the tests' parent folder.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
