"""The energy of a structure as the kinetic Monte Carlo computes it, and the published potentials it tabulates
(the native half of ``tabula.kmc``)."""

from typing import final

__all__ = ["Energy", "energy_xyz", "potential"]

@final
class Energy:
    """The energy of a structure, and what it was computed on."""

    @property
    def energy(self) -> float:
        """The energy in eV."""
    @property
    def energy_nev(self) -> int:
        """The energy in neV, as the KMC keeps it (an integer: exact sums)."""
    @property
    def atoms(self) -> int:
        """Atoms on the lattice."""
    @property
    def vacancies(self) -> int:
        """Empty sites."""
    @property
    def lattice(self) -> str:
        """The lattice: ``sc``, ``bcc`` or ``fcc``."""
    @property
    def cells(self) -> int:
        """Conventional cells along the cubic cell's edge."""
    @property
    def lattice_constant(self) -> float:
        """The lattice constant in Å."""
    @property
    def symbols(self) -> list[str]:
        """The species, in order of first appearance."""
    @property
    def shells(self) -> int:
        """Neighbour shells within the potential's cutoff."""
    @property
    def cutoff(self) -> float:
        """The potential's cutoff in Å."""
    @property
    def report(self) -> str:
        """The report ``tabula kmc energy`` prints."""

def energy_xyz(xyz: str, potential: str, style: str | None = None) -> Energy:
    """The energy of the first frame of an extended-XYZ text with the EAM potential file ``potential``, as
    ``tabula kmc energy`` computes it."""

def potential(name: str) -> str:
    """The text of a potential file tabulated from a published analytic form: ``fe-cu`` or ``zhou-fe-cu``."""
