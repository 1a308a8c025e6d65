"""The energy of a structure as Tabula's kinetic Monte Carlo computes it (``tabula kmc energy``), from an ASE
``Atoms`` object or an extended-XYZ text, and the published potentials the KMC tabulates.

>>> import tabula.kmc
>>> text = tabula.kmc.potential("fe-cu")  # Ackland et al.'s Fe-Cu, as an eam/fs file's text
"""

from ._tabula import kmc as _native

Energy = _native.Energy
energy_xyz = _native.energy_xyz
potential = _native.potential

__all__ = ["Energy", "energy", "energy_xyz", "potential", "to_xyz"]


def to_xyz(atoms) -> str:
    """An ASE ``Atoms`` as the extended-XYZ text ``energy_xyz`` reads: its cubic cell and every atom, positions
    written to the last bit (``repr``). ``X`` atoms are vacancies."""
    cell = atoms.get_cell()
    edge = float(cell[0][0])
    for i in range(3):
        for j in range(3):
            expected = edge if i == j else 0.0
            if abs(float(cell[i][j]) - expected) > 1e-6 * edge:
                raise ValueError(f"the cell must be cubic, L 0 0 0 L 0 0 0 L; this one is {cell.tolist()}")
    lines = [str(len(atoms)), f'Lattice="{edge!r} 0 0 0 {edge!r} 0 0 0 {edge!r}" Properties=species:S:1:pos:R:3 pbc="T T T"']
    for symbol, (x, y, z) in zip(atoms.get_chemical_symbols(), atoms.get_positions()):
        lines.append(f"{symbol} {float(x)!r} {float(y)!r} {float(z)!r}")
    return "\n".join(lines) + "\n"


def energy(structure, potential: str, style=None) -> Energy:
    """The energy of ``structure`` (an ASE ``Atoms`` on an sc, bcc or fcc lattice filling a cubic cell, or an
    extended-XYZ text) with the EAM potential file ``potential`` (its style from its name, or ``style``:
    ``eam``, ``eam/alloy``, ``eam/fs``), computed exactly as the KMC computes it. Empty sites and ``X`` atoms are
    vacancies."""
    text = structure if isinstance(structure, str) else to_xyz(structure)
    return energy_xyz(text, str(potential), style)
